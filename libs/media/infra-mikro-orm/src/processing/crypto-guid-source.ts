import { randomInt } from 'node:crypto';
import { GuidSource } from '@rc/media-domain';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ALPHABET = `${LETTERS}0123456789`;

/** 16 random letters and digits, the first a letter (about 94 bits): unguessable file keys. */
export class CryptoGuidSource extends GuidSource {
  next(): string {
    let guid = LETTERS[randomInt(LETTERS.length)]!;
    for (let i = 1; i < 16; i++) guid += ALPHABET[randomInt(ALPHABET.length)]!;
    return guid;
  }
}
