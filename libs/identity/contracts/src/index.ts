// What the identity context publishes to the others: who is calling, and how users are shown.
export * from './caller.js';
export * from './user-summaries.js';
