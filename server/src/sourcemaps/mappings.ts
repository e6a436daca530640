// Reading and writing a map's `mappings`: segments one at a time with absolute values (a decoder
// whose whole state fits in seven integers, so a lookup can resume from a saved checkpoint instead
// of decoding the map from its start), and an encoder for the maps the service rewrites.
import { COMMA, MappingsError, readVlq, SEMICOLON, writeVlq } from './vlq.ts';

/** One mapping, absolute and 0-based. `source` is -1 for a segment without a source (1 field). */
export interface Segment {
  line: number;
  column: number;
  source: number;
  sourceLine: number;
  sourceColumn: number;
  /** -1 without a name. */
  name: number;
}

export const emptySegment = (): Segment => ({
  line: 0,
  column: 0,
  source: -1,
  sourceLine: 0,
  sourceColumn: 0,
  name: -1,
});

/** Integers per checkpoint record: the decoder's state before a segment, and that segment's column. */
export const CHECKPOINT_INTS = 8;

/**
 * Decodes segments in order. Field values are relative to the previous segment (the column to the
 * previous one of the line); `next` makes them absolute. Throws `MappingsError` on a malformed
 * segment; it never loops without consuming a character.
 */
export class MappingsDecoder {
  /** Index of the next character. */
  at = 0;
  line = 0;
  private column = 0;
  private source = 0;
  private sourceLine = 0;
  private sourceColumn = 0;
  private name = 0;
  private readonly cursor = { at: 0 };

  constructor(private readonly text: string) {}

  /** Resumes at checkpoint record `i` of `checkpoints` (see `saveCheckpoint`). */
  restore(checkpoints: Int32Array, i: number): void {
    const o = i * CHECKPOINT_INTS;
    this.at = checkpoints[o]!;
    this.line = checkpoints[o + 1]!;
    this.column = checkpoints[o + 2]!;
    this.source = checkpoints[o + 3]!;
    this.sourceLine = checkpoints[o + 4]!;
    this.sourceColumn = checkpoints[o + 5]!;
    this.name = checkpoints[o + 6]!;
  }

  /** Skips separators; false at the end of the text. Call before `saveCheckpoint`. */
  skipSeparators(): boolean {
    const text = this.text;
    while (this.at < text.length) {
      const code = text.charCodeAt(this.at);
      if (code === SEMICOLON) {
        this.line++;
        this.column = 0;
      } else if (code !== COMMA) return true;
      this.at++;
    }
    return false;
  }

  /** Writes the state before the next segment, and `column`, as record `i` of `out`. */
  saveCheckpoint(out: Int32Array, i: number, column: number): void {
    const o = i * CHECKPOINT_INTS;
    out[o] = this.at;
    out[o + 1] = this.line;
    out[o + 2] = this.column;
    out[o + 3] = this.source;
    out[o + 4] = this.sourceLine;
    out[o + 5] = this.sourceColumn;
    out[o + 6] = this.name;
    out[o + 7] = column;
  }

  /** Decodes the next segment into `seg`; false at the end. */
  next(seg: Segment): boolean {
    if (!this.skipSeparators()) return false;
    const text = this.text;
    const cursor = this.cursor;
    cursor.at = this.at;
    this.column += readVlq(text, cursor);
    seg.line = this.line;
    seg.column = this.column;
    seg.source = -1;
    seg.name = -1;
    if (this.column < 0) throw new MappingsError('a negative column', this.at);
    if (!this.ends(cursor.at)) {
      this.source += readVlq(text, cursor);
      if (this.ends(cursor.at)) throw new MappingsError('a segment of 2 fields', cursor.at);
      this.sourceLine += readVlq(text, cursor);
      if (this.ends(cursor.at)) throw new MappingsError('a segment of 3 fields', cursor.at);
      this.sourceColumn += readVlq(text, cursor);
      if (!this.ends(cursor.at)) {
        this.name += readVlq(text, cursor);
        if (!this.ends(cursor.at)) throw new MappingsError('a segment of 6 fields', cursor.at);
        seg.name = this.name;
      }
      seg.source = this.source;
      seg.sourceLine = this.sourceLine;
      seg.sourceColumn = this.sourceColumn;
    }
    this.at = cursor.at;
    return true;
  }

  private ends(at: number): boolean {
    if (at >= this.text.length) return true;
    const code = this.text.charCodeAt(at);
    return code === COMMA || code === SEMICOLON;
  }
}

/**
 * Writes segments, given in order of generated position, as a `mappings` string. Bytes go into a
 * growing buffer (millions of small strings would cost more than the text).
 */
export class MappingsEncoder {
  private bytes = new Uint8Array(1024);
  private length = 0;
  private line = 0;
  private column = 0;
  private source = 0;
  private sourceLine = 0;
  private sourceColumn = 0;
  private name = 0;
  private first = true;
  private readonly digits: string[] = [];

  push(seg: Segment): void {
    while (this.line < seg.line) {
      this.put(SEMICOLON);
      this.line++;
      this.column = 0;
      this.first = true;
    }
    if (!this.first) this.put(COMMA);
    this.first = false;
    const digits = this.digits;
    digits.length = 0;
    writeVlq(digits, seg.column - this.column);
    this.column = seg.column;
    if (seg.source >= 0) {
      writeVlq(digits, seg.source - this.source);
      writeVlq(digits, seg.sourceLine - this.sourceLine);
      writeVlq(digits, seg.sourceColumn - this.sourceColumn);
      this.source = seg.source;
      this.sourceLine = seg.sourceLine;
      this.sourceColumn = seg.sourceColumn;
      if (seg.name >= 0) {
        writeVlq(digits, seg.name - this.name);
        this.name = seg.name;
      }
    }
    for (const digit of digits) this.put(digit.charCodeAt(0));
  }

  finish(): string {
    return Buffer.from(this.bytes.buffer, 0, this.length).toString('latin1');
  }

  private put(code: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = code;
  }
}
