import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/identity-http',
  rootDir: import.meta.dirname,
};
