import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/identity-domain',
  rootDir: import.meta.dirname,
};
