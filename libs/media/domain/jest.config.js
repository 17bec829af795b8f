import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/media-domain',
  rootDir: import.meta.dirname,
};
