// A local Serverless plugin (serverless.yml `plugins: ./infra/serverless/plugin.js`): before
// `package` (and so `deploy`) builds anything, it runs the checks of ./package-checks.ts on the
// resolved parameters, generates the functions' roles from the aws provider's configuration (its
// Regions, VPCs and Global Accelerator) and applies the Lambda VPC parameters; once the template
// is built, it checks the roles in it against that configuration. The checks are TypeScript that
// reuses the functions' own configuration parsers, so they are loaded through tsx (a dev
// dependency, as is osls itself).
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
            karmadaInstanceId: stringProp,
            // The IAM pins, checked against the tenant policy (checkIamPins).
            awsAllowedSchemes: stringProp,
            awsAllowedSubnets: stringProp,
            awsAllowedSecurityGroups: stringProp,
            forwarderClusterArn: stringProp,
          },
          required: ['provider', 'cloudConfig', 'awsOwnerId', 'karmadaInstanceId', 'forwarderClusterArn'],
          additionalProperties: false,
        },
        // infra/iam/function-roles.ts PARAMETERS' names; packagedRoles says which one is missing.
        iamParameters: { type: 'object', additionalProperties: stringProp },
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
      'after:aws:package:finalize:mergeCustomProviderResources': () => this.finalize(),
    };
  }

  async loadChecks() {
    this.checks ??= await tsImport('./package-checks.ts', import.meta.url);
    return this.checks;
  }

  // A PackageCheckError is the operator's to fix: its message alone, without a stack trace.
  async guarded(step) {
    const checks = await this.loadChecks();
    try {
      return await step(checks);
    } catch (err) {
      if (err instanceof checks.PackageCheckError) {
        throw new this.serverless.classes.Error(err.message, 'MCP_PACKAGE_CHECK');
      }
      throw err;
    }
  }

  async finalize() {
    this.grantVpcAccess();
    const packaged = this.packaged;
    if (!packaged) return;
    await this.guarded((checks) =>
      checks.checkTemplateRoles(
        this.serverless.service.provider.compiledCloudFormationTemplate,
        packaged.config,
        this.serverless.service.provider.region,
        packaged.cloudConfig,
      ),
    );
    this.log?.info?.(
      `function roles cover ${packaged.regions.join(', ')}, as ${packaged.cloudConfig} configures`,
    );
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
    const { service, serviceDir } = this.serverless;
    const custom = service.custom ?? {};
    await this.guarded(async (checks) => {
      checks.checkRequiredParams(custom.packageChecks ?? {});
      checks.checkNoSecrets(serviceDir);
      const config = await checks.checkCloudConfig({ serviceDir, ...custom.packageChecks });
      await checks.checkIamPins({ serviceDir, ...custom.packageChecks });
      if (config) {
        // The roles of this configuration replace the ones serverless.yml includes
        // (infra/iam/function-roles.json: the deployment's Region only, no Global Accelerator).
        const roles = checks.packagedRoles(config, custom.iamParameters ?? {});
        const resources = (service.resources ??= {});
        resources.Conditions = { ...resources.Conditions, ...roles.Conditions };
        resources.Resources = { ...resources.Resources, ...roles.Roles };
        this.packaged = {
          config,
          cloudConfig: custom.packageChecks.cloudConfig,
          regions: checks.configuredRegionNames(config),
        };
      }
      const vpc = checks.lambdaVpc(
        custom.lambdaVpc?.subnetIds ?? '',
        custom.lambdaVpc?.securityGroupIds ?? '',
      );
      if (vpc) service.provider.vpc = vpc;
    });
    this.log?.info?.(
      'package checks passed (parameters, cloudConfig, IAM pins, no secrets under config/, Lambda VPC)',
    );
  }
}
