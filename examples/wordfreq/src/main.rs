//! Prints the ten most frequent words of standard input.

use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("standard input is UTF-8 text");
    for (word, count) in wordfreq::top_words(&text, 10) {
        println!("{count:>6} {word}");
    }
}
