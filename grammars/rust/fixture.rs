//! Fixture for the Rust queries.
use std::collections::HashMap;
use crate::sync::{mpsc, Mutex as Lock};
extern crate alloc;

mod inline {
    pub fn nested() {}
}
mod declared;

pub const LIMIT: usize = 8;
static COUNTER: u32 = 0;

pub struct Sender<T> {
    inner: Vec<T>,
}

pub union Bits {
    a: u32,
    b: f32,
}

pub enum Event {
    Open,
    Close(u8),
}

pub type Map = HashMap<String, Sender<u8>>;

pub trait Channel {
    type Item;
    fn send(&self, value: u8) -> bool;
    fn close(&mut self) {}
}

impl<T> Sender<T> {
    pub fn new() -> Self {
        Sender { inner: Vec::new() }
    }

    pub fn try_send(&self, value: T) -> Result<(), Event> {
        let map: Map = HashMap::new();
        helper(value);
        self.inner.len();
        mpsc::channel::<u8>();
        println!("{}", describe(LIMIT));
        Ok(())
    }
}

macro_rules! shout {
    () => {};
}

fn helper<T>(_value: T) {}

fn written() -> crate::sync::Limit {
    super::helper(0);
    self::inline::nested::<u8>();
    std::mem::drop(1);
    crate::sync::Limit::new()
}
