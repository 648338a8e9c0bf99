import { list, map, struct } from './query.js';
import type { Shape, StructShape } from './query.js';

// Input shapes of the supported actions, transcribed from the SDK's schemas (dist-cjs/index.js).
const S: Shape = 'string';
const I: Shape = 'integer';
const B: Shape = 'boolean';
const strings = list(S);

const Tag = struct({ Key: S, Value: S });
const Tags = list(Tag);
const Certificate = struct({ CertificateArn: S, IsDefault: B });
const SubnetMapping = struct({
  SubnetId: S,
  AllocationId: S,
  PrivateIPv4Address: S,
  IPv6Address: S,
  SourceNatIpv6Prefix: S,
});
const Matcher = struct({ HttpCode: S, GrpcCode: S });
const Target = struct({ Id: S, Port: I, AvailabilityZone: S, QuicServerId: S });
const Attribute = struct({ Key: S, Value: S });
const MutualAuthentication = struct({
  Mode: S,
  TrustStoreArn: S,
  IgnoreClientCertificateExpiry: B,
  TrustStoreAssociationStatus: S,
  AdvertiseTrustStoreCaNames: S,
});
const caBundle = {
  CaCertificatesBundleS3Bucket: S,
  CaCertificatesBundleS3Key: S,
  CaCertificatesBundleS3ObjectVersion: S,
};

const authCommon = {
  SessionCookieName: S,
  Scope: S,
  SessionTimeout: I,
  AuthenticationRequestExtraParams: map(S),
  OnUnauthenticatedRequest: S,
};
const Action = struct({
  Type: S,
  TargetGroupArn: S,
  Order: I,
  AuthenticateOidcConfig: struct({
    Issuer: S,
    AuthorizationEndpoint: S,
    TokenEndpoint: S,
    UserInfoEndpoint: S,
    ClientId: S,
    ClientSecret: S,
    UseExistingClientSecret: B,
    ...authCommon,
  }),
  AuthenticateCognitoConfig: struct({
    UserPoolArn: S,
    UserPoolClientId: S,
    UserPoolDomain: S,
    ...authCommon,
  }),
  RedirectConfig: struct({ Protocol: S, Port: S, Host: S, Path: S, Query: S, StatusCode: S }),
  FixedResponseConfig: struct({ MessageBody: S, StatusCode: S, ContentType: S }),
  ForwardConfig: struct({
    TargetGroups: list(struct({ TargetGroupArn: S, Weight: I })),
    TargetGroupStickinessConfig: struct({ Enabled: B, DurationSeconds: I }),
  }),
  JwtValidationConfig: struct({
    JwksEndpoint: S,
    Issuer: S,
    AdditionalClaims: list(struct({ Format: S, Name: S, Values: strings })),
  }),
});
const Actions = list(Action);

const valuesConfig = struct({ Values: strings, RegexValues: strings });
const Condition = struct({
  Field: S,
  Values: strings,
  RegexValues: strings,
  HostHeaderConfig: valuesConfig,
  PathPatternConfig: valuesConfig,
  HttpHeaderConfig: struct({ HttpHeaderName: S, Values: strings, RegexValues: strings }),
  QueryStringConfig: struct({ Values: list(struct({ Key: S, Value: S })) }),
  HttpRequestMethodConfig: struct({ Values: strings }),
  SourceIpConfig: struct({ Values: strings, IpAddressType: S }),
});
const Conditions = list(Condition);
const rewrites = struct({ Rewrites: list(struct({ Regex: S, Replace: S })) });
const Transforms = list(struct({ Type: S, HostHeaderRewriteConfig: rewrites, UrlRewriteConfig: rewrites }));
const paging = { Marker: S, PageSize: I };
const healthCheck = {
  HealthCheckProtocol: S,
  HealthCheckPort: S,
  HealthCheckEnabled: B,
  HealthCheckPath: S,
  HealthCheckIntervalSeconds: I,
  HealthCheckTimeoutSeconds: I,
  HealthyThresholdCount: I,
  UnhealthyThresholdCount: I,
  Matcher,
};

export const INPUT_SHAPES: Readonly<Record<string, StructShape>> = {
  CreateLoadBalancer: struct({
    Name: S,
    Subnets: strings,
    SubnetMappings: list(SubnetMapping),
    SecurityGroups: strings,
    Scheme: S,
    Tags,
    Type: S,
    IpAddressType: S,
    CustomerOwnedIpv4Pool: S,
  }),
  DescribeLoadBalancers: struct({ LoadBalancerArns: strings, Names: strings, ...paging }),
  DeleteLoadBalancer: struct({ LoadBalancerArn: S }),
  ModifyLoadBalancerAttributes: struct({ LoadBalancerArn: S, Attributes: list(Attribute) }),
  DescribeLoadBalancerAttributes: struct({ LoadBalancerArn: S }),
  SetSecurityGroups: struct({
    LoadBalancerArn: S,
    SecurityGroups: strings,
    EnforceSecurityGroupInboundRulesOnPrivateLinkTraffic: S,
  }),
  SetSubnets: struct({
    LoadBalancerArn: S,
    Subnets: strings,
    SubnetMappings: list(SubnetMapping),
    IpAddressType: S,
  }),
  SetIpAddressType: struct({ LoadBalancerArn: S, IpAddressType: S }),
  CreateTargetGroup: struct({
    Name: S,
    Protocol: S,
    ProtocolVersion: S,
    Port: I,
    VpcId: S,
    TargetType: S,
    Tags,
    IpAddressType: S,
    ...healthCheck,
  }),
  DescribeTargetGroups: struct({ LoadBalancerArn: S, TargetGroupArns: strings, Names: strings, ...paging }),
  ModifyTargetGroup: struct({ TargetGroupArn: S, ...healthCheck }),
  ModifyTargetGroupAttributes: struct({ TargetGroupArn: S, Attributes: list(Attribute) }),
  DescribeTargetGroupAttributes: struct({ TargetGroupArn: S }),
  DeleteTargetGroup: struct({ TargetGroupArn: S }),
  RegisterTargets: struct({ TargetGroupArn: S, Targets: list(Target) }),
  DeregisterTargets: struct({ TargetGroupArn: S, Targets: list(Target) }),
  DescribeTargetHealth: struct({ TargetGroupArn: S, Targets: list(Target), Include: strings }),
  CreateListener: struct({
    LoadBalancerArn: S,
    Protocol: S,
    Port: I,
    SslPolicy: S,
    Certificates: list(Certificate),
    DefaultActions: Actions,
    AlpnPolicy: strings,
    Tags,
    MutualAuthentication,
  }),
  DescribeListeners: struct({ LoadBalancerArn: S, ListenerArns: strings, ...paging }),
  ModifyListener: struct({
    ListenerArn: S,
    Port: I,
    Protocol: S,
    SslPolicy: S,
    Certificates: list(Certificate),
    DefaultActions: Actions,
    AlpnPolicy: strings,
    MutualAuthentication,
  }),
  DeleteListener: struct({ ListenerArn: S }),
  AddListenerCertificates: struct({ ListenerArn: S, Certificates: list(Certificate) }),
  RemoveListenerCertificates: struct({ ListenerArn: S, Certificates: list(Certificate) }),
  DescribeListenerCertificates: struct({ ListenerArn: S, ...paging }),
  CreateRule: struct({ ListenerArn: S, Conditions, Priority: I, Actions, Tags, Transforms }),
  DescribeRules: struct({ ListenerArn: S, RuleArns: strings, ...paging }),
  ModifyRule: struct({ RuleArn: S, Conditions, Actions, Transforms, ResetTransforms: B }),
  DeleteRule: struct({ RuleArn: S }),
  SetRulePriorities: struct({ RulePriorities: list(struct({ RuleArn: S, Priority: I })) }),
  AddTags: struct({ ResourceArns: strings, Tags }),
  RemoveTags: struct({ ResourceArns: strings, TagKeys: strings }),
  DescribeTags: struct({ ResourceArns: strings }),
  DescribeAccountLimits: struct({ ...paging }),
  DescribeListenerAttributes: struct({ ListenerArn: S }),
  ModifyListenerAttributes: struct({ ListenerArn: S, Attributes: list(Attribute) }),
  DescribeCapacityReservation: struct({ LoadBalancerArn: S }),
  ModifyCapacityReservation: struct({
    LoadBalancerArn: S,
    MinimumLoadBalancerCapacity: struct({ CapacityUnits: I }),
    ResetCapacityReservation: B,
  }),
  CreateTrustStore: struct({ Name: S, ...caBundle, Tags }),
  DescribeTrustStores: struct({ TrustStoreArns: strings, Names: strings, ...paging }),
  ModifyTrustStore: struct({ TrustStoreArn: S, ...caBundle }),
  DeleteTrustStore: struct({ TrustStoreArn: S }),
  DescribeTrustStoreAssociations: struct({ TrustStoreArn: S, ...paging }),
  GetTrustStoreCaCertificatesBundle: struct({ TrustStoreArn: S }),
};
