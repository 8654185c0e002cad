// A GGUF v3 writer for tests: typed metadata, F32 tensors, 32-byte alignment.
// Layout: magic "GGUF", version, tensor count, metadata count, metadata
// key/values, tensor infos (name, dims with ne0 first, type, offset from the
// data section), padding, then each tensor's data at an aligned offset.
import { writeFileSync } from 'node:fs';

/** A metadata value with its GGUF type. */
export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: string[] }
  | { type: 'f32[]'; value: number[] }
  | { type: 'i32[]'; value: number[] };

export interface GgufTensor {
  name: string;
  /** ggml order: ne0 (the contiguous dimension) first. */
  dims: number[];
  data: Float32Array;
}

const ALIGN = 32;
const T = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;
const GGML_F32 = 0;

class Buf {
  private chunks: Buffer[] = [];
  size = 0;
  push(b: Buffer): void {
    this.chunks.push(b);
    this.size += b.length;
  }
  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }
  i32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    this.push(b);
  }
  u64(n: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }
  f32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(n);
    this.push(b);
  }
  str(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  pad(): void {
    const rem = this.size % ALIGN;
    if (rem) this.push(Buffer.alloc(ALIGN - rem));
  }
  concat(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function writeValue(out: Buf, v: GgufValue): void {
  switch (v.type) {
    case 'u32':
      out.u32(T.u32);
      out.u32(v.value);
      break;
    case 'i32':
      out.u32(T.i32);
      out.i32(v.value);
      break;
    case 'f32':
      out.u32(T.f32);
      out.f32(v.value);
      break;
    case 'bool':
      out.u32(T.bool);
      out.push(Buffer.from([v.value ? 1 : 0]));
      break;
    case 'string':
      out.u32(T.string);
      out.str(v.value);
      break;
    case 'string[]':
      out.u32(T.array);
      out.u32(T.string);
      out.u64(v.value.length);
      v.value.forEach((s) => out.str(s));
      break;
    case 'f32[]':
      out.u32(T.array);
      out.u32(T.f32);
      out.u64(v.value.length);
      v.value.forEach((x) => out.f32(x));
      break;
    case 'i32[]':
      out.u32(T.array);
      out.u32(T.i32);
      out.u64(v.value.length);
      v.value.forEach((x) => out.i32(x));
      break;
  }
}

/** Serializes a GGUF v3 file. */
export function encodeGguf(metadata: Record<string, GgufValue>, tensors: GgufTensor[]): Buffer {
  const out = new Buf();
  out.push(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    out.str(key);
    writeValue(out, value);
  }
  let offset = 0;
  for (const t of tensors) {
    const count = t.dims.reduce((a, b) => a * b, 1);
    if (count !== t.data.length) throw new Error(`tensor ${t.name}: dims ${t.dims.join('x')} need ${count} values, got ${t.data.length}`);
    out.str(t.name);
    out.u32(t.dims.length);
    t.dims.forEach((d) => out.u64(d));
    out.u32(GGML_F32);
    out.u64(offset);
    offset += Math.ceil(t.data.byteLength / ALIGN) * ALIGN;
  }
  out.pad();
  for (const t of tensors) {
    out.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    out.pad();
  }
  return out.concat();
}

export function writeGguf(path: string, metadata: Record<string, GgufValue>, tensors: GgufTensor[]): void {
  writeFileSync(path, encodeGguf(metadata, tensors));
}
