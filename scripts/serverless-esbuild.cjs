// serverless-esbuild reads its options with require() (custom.esbuild.config in serverless.yml):
// this hands it scripts/function-build.ts, the configuration the bundle benchmark measures too.
const { require: requireTs } = require('tsx/cjs/api');

module.exports = () => requireTs('./function-build.ts', __filename).serverlessEsbuildOptions();
