import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/media-http',
  rootDir: import.meta.dirname,
};
