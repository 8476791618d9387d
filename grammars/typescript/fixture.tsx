// Fixture for the TypeScript queries (TSX grammar).
import { useState } from "react";
import * as path from "./util/path";
export { helper } from "./helpers";

export interface Props {
  name: string;
}
export type Id = string | number;
export enum Color {
  Red,
  Green,
}
export abstract class Shape {
  abstract area(): number;
}
export class Circle extends Shape {
  constructor(private r: number) {
    super();
  }
  area(): number {
    return Math.PI * this.r * this.r;
  }
  onResize = (scale: number): void => {
    this.r *= scale;
  };
  label = "circle";
}
export function greet(props: Props): string {
  return path.join("a", props.name);
}
function* ids() {
  yield 1;
}
export const render = (p: Props) => <Panel>{greet(p)}</Panel>;
const LIMIT = 8;
var legacy = function (done: () => void) {
  done();
};
namespace Geometry {
  export const unit = 1;
}
declare module "virtual:config" {
  export function setting(key: string): string;
}
const lazy = import("./lazy");
new Circle(2);
export default function (props: Props) {
  return greet(props);
}
