// A local Serverless plugin (serverless.yml `plugins: ./infra/serverless/plugin.js`): before
// `package` (and so `deploy`) builds anything, it runs the checks of ./package-checks.ts on the
// resolved parameters and applies the Lambda VPC parameters. The checks are TypeScript that reuses
// the functions' own configuration parsers, so they are loaded through tsx (a dev dependency, as is
// osls itself).
import { tsImport } from 'tsx/esm/api';

const stringProp = { type: 'string' };
const VPC_ACCESS_POLICY = 'AWSLambdaVPCAccessExecutionRole';

export default class PackageChecksPlugin {
  constructor(serverless, _options, { log } = {}) {
    this.serverless = serverless;
    this.log = log;
    serverless.configSchemaHandler?.defineCustomProperties({
      type: 'object',
      properties: {
        packageChecks: {
          type: 'object',
          properties: {
            provider: stringProp,
            cloudConfig: stringProp,
            awsOwnerId: stringProp,
            // The IAM pins, checked against the tenant policy (checkIamPins).
            awsAllowedSchemes: stringProp,
            awsAllowedSubnets: stringProp,
            awsAllowedSecurityGroups: stringProp,
          },
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
    this.hooks = {
      'before:package:initialize': () => this.check(),
      'after:aws:package:finalize:mergeCustomProviderResources': () => this.grantVpcAccess(),
    };
  }

  // osls gives a VPC function's ENI permissions (AWSLambdaVPCAccessExecutionRole) only to its
  // default role; functions with a role of their own need it too, or Lambda cannot attach them.
  grantVpcAccess() {
    const template = this.serverless.service.provider.compiledCloudFormationTemplate;
    const resources = template.Resources ?? {};
    for (const fn of Object.values(resources)) {
      if (fn.Type !== 'AWS::Lambda::Function' || !fn.Properties?.VpcConfig) continue;
      const roleId = fn.Properties.Role?.['Fn::GetAtt']?.[0];
      const role = resources[roleId];
      if (role?.Type !== 'AWS::IAM::Role') continue;
      const arns = (role.Properties.ManagedPolicyArns ??= []);
      if (!JSON.stringify(arns).includes(VPC_ACCESS_POLICY)) {
        arns.push({ 'Fn::Sub': `arn:\${AWS::Partition}:iam::aws:policy/service-role/${VPC_ACCESS_POLICY}` });
      }
    }
  }

  async check() {
    const checks = await tsImport('./package-checks.ts', import.meta.url);
    const { service, serviceDir } = this.serverless;
    const custom = service.custom ?? {};
    try {
      checks.checkNoSecrets(serviceDir);
      await checks.checkCloudConfig({ serviceDir, ...custom.packageChecks });
      await checks.checkIamPins({ serviceDir, ...custom.packageChecks });
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
    this.log?.info?.('package checks passed (cloudConfig, IAM pins, no secrets under config/, Lambda VPC)');
  }
}
