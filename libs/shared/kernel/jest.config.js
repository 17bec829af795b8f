import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/shared-kernel',
  rootDir: import.meta.dirname,
};
