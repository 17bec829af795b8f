import preset from '../../../jest.preset.js';

export default {
  ...preset,
  displayName: '@rc/webhooks-http',
  rootDir: import.meta.dirname,
};
