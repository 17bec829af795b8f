// `node --import <this file> some.ts`: see typescript-hooks.mjs.
import { register } from 'node:module';

register(new URL('./typescript-hooks.mjs', import.meta.url));
