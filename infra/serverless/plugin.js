// A local Serverless plugin (serverless.yml `plugins: ./infra/serverless/plugin.js`): before
// `package` (and so `deploy`) builds anything, it runs the checks of ./package-checks.ts on the
// resolved parameters and applies the Lambda VPC parameters. The checks are TypeScript that reuses
// the functions' own configuration parsers, so they are loaded through tsx (a dev dependency, as is
// osls itself).
import { tsImport } from 'tsx/esm/api';

const stringProp = { type: 'string' };

export default class PackageChecksPlugin {
  constructor(serverless, _options, { log } = {}) {
    this.serverless = serverless;
    this.log = log;
    serverless.configSchemaHandler?.defineCustomProperties({
      type: 'object',
      properties: {
        packageChecks: {
          type: 'object',
          properties: { provider: stringProp, cloudConfig: stringProp, awsOwnerId: stringProp },
          required: ['provider', 'cloudConfig', 'awsOwnerId'],
          additionalProperties: false,
        },
        lambdaVpc: {
          type: 'object',
          properties: { subnetIds: stringProp, securityGroupIds: stringProp },
          required: ['subnetIds', 'securityGroupIds'],
          additionalProperties: false,
        },
      },
    });
    this.hooks = { 'before:package:initialize': () => this.check() };
  }

  async check() {
    const checks = await tsImport('./package-checks.ts', import.meta.url);
    const { service, serviceDir } = this.serverless;
    const custom = service.custom ?? {};
    try {
      checks.checkNoSecrets(serviceDir);
      checks.checkCloudConfig({ serviceDir, ...custom.packageChecks });
      const vpc = checks.lambdaVpc(
        custom.lambdaVpc?.subnetIds ?? '',
        custom.lambdaVpc?.securityGroupIds ?? '',
      );
      if (vpc) service.provider.vpc = vpc;
    } catch (err) {
      if (err instanceof checks.PackageCheckError) {
        throw new this.serverless.classes.Error(err.message, 'MCP_PACKAGE_CHECK');
      }
      throw err;
    }
    this.log?.info?.('package checks passed (cloudConfig, no secrets under config/, Lambda VPC)');
  }
}
