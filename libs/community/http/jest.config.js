import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/community-http',
  rootDir: import.meta.dirname,
};
