// Demo content, loaded once into a database without content, through every context's use cases.
export * from './demo-data.js';
export * from './demo-marks.js';
export * from './demo-pictures.js';
export * from './teams-demo.js';
