import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/media-contracts',
  rootDir: import.meta.dirname,
};
