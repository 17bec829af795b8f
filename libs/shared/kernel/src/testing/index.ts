export * from './fixed-clock.js';
