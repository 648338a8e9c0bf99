import type * as Sdk from '@aws-sdk/client-elastic-load-balancing-v2';
import * as capacity from './capacity.js';
import * as listenerAttributes from './listener-attributes.js';
import * as lbs from './load-balancers.js';
import * as listeners from './listeners.js';
import * as quotas from './quotas.js';
import type { HealthOverride } from './model.js';
import * as rules from './rules.js';
import { Store } from './store.js';
import type { StoreOptions } from './store.js';
import * as tags from './tags.js';
import * as tgs from './target-groups.js';
import * as targets from './targets.js';
import * as trustStores from './trust-stores.js';

export interface SnapshotTarget {
  TargetGroupArn: string;
  TargetGroupName: string;
  Id: string;
  Port: number;
  AvailabilityZone?: string;
  State: string;
  Reason?: string;
}

export interface Elbv2Snapshot {
  loadBalancers: Sdk.LoadBalancer[];
  targetGroups: Sdk.TargetGroup[];
  listeners: Sdk.Listener[];
  rules: (Sdk.Rule & { ListenerArn: string })[];
  targets: SnapshotTarget[];
  tags: { ResourceArn: string; Tags: Record<string, string> }[];
}

const byText =
  <T>(f: (x: T) => string) =>
  (a: T, b: T) =>
    f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : 0;

/**
 * The simulator's state with the ELBv2 API as in-process methods (same input/output shapes as
 * the SDK commands, same validation and errors, thrown as SimError). Tests use these to make
 * "console drift" without going through HTTP, and the plain accessors to inspect the result.
 */
export class Elbv2State {
  readonly store: Store;
  constructor(options: StoreOptions = {}) {
    this.store = new Store(options);
  }

  createLoadBalancer = (i: Sdk.CreateLoadBalancerInput) => lbs.createLoadBalancer(this.store, i);
  describeLoadBalancers = (i: Sdk.DescribeLoadBalancersInput = {}) =>
    lbs.describeLoadBalancers(this.store, i);
  deleteLoadBalancer = (i: Sdk.DeleteLoadBalancerInput) => lbs.deleteLoadBalancer(this.store, i);
  modifyLoadBalancerAttributes = (i: Sdk.ModifyLoadBalancerAttributesInput) =>
    lbs.modifyLoadBalancerAttributes(this.store, i);
  describeLoadBalancerAttributes = (i: Sdk.DescribeLoadBalancerAttributesInput) =>
    lbs.describeLoadBalancerAttributes(this.store, i);
  setSecurityGroups = (i: Sdk.SetSecurityGroupsInput) => lbs.setSecurityGroups(this.store, i);
  setSubnets = (i: Sdk.SetSubnetsInput) => lbs.setSubnets(this.store, i);
  setIpAddressType = (i: Sdk.SetIpAddressTypeInput) => lbs.setIpAddressType(this.store, i);
  createTargetGroup = (i: Sdk.CreateTargetGroupInput) => tgs.createTargetGroup(this.store, i);
  describeTargetGroups = (i: Sdk.DescribeTargetGroupsInput = {}) => tgs.describeTargetGroups(this.store, i);
  modifyTargetGroup = (i: Sdk.ModifyTargetGroupInput) => tgs.modifyTargetGroup(this.store, i);
  modifyTargetGroupAttributes = (i: Sdk.ModifyTargetGroupAttributesInput) =>
    tgs.modifyTargetGroupAttributes(this.store, i);
  describeTargetGroupAttributes = (i: Sdk.DescribeTargetGroupAttributesInput) =>
    tgs.describeTargetGroupAttributes(this.store, i);
  deleteTargetGroup = (i: Sdk.DeleteTargetGroupInput) => tgs.deleteTargetGroup(this.store, i);
  registerTargets = (i: Sdk.RegisterTargetsInput) => targets.registerTargets(this.store, i);
  deregisterTargets = (i: Sdk.DeregisterTargetsInput) => targets.deregisterTargets(this.store, i);
  describeTargetHealth = (i: Sdk.DescribeTargetHealthInput) => targets.describeTargetHealth(this.store, i);
  createListener = (i: Sdk.CreateListenerInput) => listeners.createListener(this.store, i);
  describeListeners = (i: Sdk.DescribeListenersInput) => listeners.describeListeners(this.store, i);
  modifyListener = (i: Sdk.ModifyListenerInput) => listeners.modifyListener(this.store, i);
  deleteListener = (i: Sdk.DeleteListenerInput) => listeners.deleteListener(this.store, i);
  addListenerCertificates = (i: Sdk.AddListenerCertificatesInput) =>
    listeners.addListenerCertificates(this.store, i);
  removeListenerCertificates = (i: Sdk.RemoveListenerCertificatesInput) =>
    listeners.removeListenerCertificates(this.store, i);
  describeListenerCertificates = (i: Sdk.DescribeListenerCertificatesInput) =>
    listeners.describeListenerCertificates(this.store, i);
  createRule = (i: Sdk.CreateRuleInput) => rules.createRule(this.store, i);
  describeRules = (i: Sdk.DescribeRulesInput) => rules.describeRules(this.store, i);
  modifyRule = (i: Sdk.ModifyRuleInput) => rules.modifyRule(this.store, i);
  deleteRule = (i: Sdk.DeleteRuleInput) => rules.deleteRule(this.store, i);
  setRulePriorities = (i: Sdk.SetRulePrioritiesInput) => rules.setRulePriorities(this.store, i);
  addTags = (i: Sdk.AddTagsInput) => tags.addTags(this.store, i);
  removeTags = (i: Sdk.RemoveTagsInput) => tags.removeTags(this.store, i);
  describeTags = (i: Sdk.DescribeTagsInput) => tags.describeTags(this.store, i);
  describeAccountLimits = (i: Sdk.DescribeAccountLimitsInput = {}) =>
    quotas.describeAccountLimits(this.store, i);
  describeListenerAttributes = (i: Sdk.DescribeListenerAttributesInput) =>
    listenerAttributes.describeListenerAttributes(this.store, i);
  modifyListenerAttributes = (i: Sdk.ModifyListenerAttributesInput) =>
    listenerAttributes.modifyListenerAttributes(this.store, i);
  describeCapacityReservation = (i: Sdk.DescribeCapacityReservationInput) =>
    capacity.describeCapacityReservation(this.store, i);
  modifyCapacityReservation = (i: Sdk.ModifyCapacityReservationInput) =>
    capacity.modifyCapacityReservation(this.store, i);
  createTrustStore = (i: Sdk.CreateTrustStoreInput) => trustStores.createTrustStore(this.store, i);
  describeTrustStores = (i: Sdk.DescribeTrustStoresInput = {}) =>
    trustStores.describeTrustStores(this.store, i);
  modifyTrustStore = (i: Sdk.ModifyTrustStoreInput) => trustStores.modifyTrustStore(this.store, i);
  deleteTrustStore = (i: Sdk.DeleteTrustStoreInput) => trustStores.deleteTrustStore(this.store, i);
  describeTrustStoreAssociations = (i: Sdk.DescribeTrustStoreAssociationsInput) =>
    trustStores.describeTrustStoreAssociations(this.store, i);
  getTrustStoreCaCertificatesBundle = (i: Sdk.GetTrustStoreCaCertificatesBundleInput) =>
    trustStores.getTrustStoreCaCertificatesBundle(this.store, i);

  /** Deletes everything, e.g. between benchmark rounds that share one simulator. */
  clear(): void {
    this.store.clear();
  }

  /** Pins a target's health (`unhealthy`, `unavailable`, ...); undefined returns it to the model. */
  setTargetHealth(
    targetGroupArn: string,
    target: { Id: string; Port?: number },
    health: HealthOverride | undefined,
  ): void {
    targets.setTargetHealth(this.store, targetGroupArn, target, health);
  }

  /** Forces a load balancer state (`failed`, `active_impaired`, ...); undefined returns to the model. */
  setLoadBalancerState(arn: string, code: Sdk.LoadBalancerStateEnum | undefined): void {
    this.store.loadBalancer(arn).stateOverride = code;
  }

  loadBalancers(): Sdk.LoadBalancer[] {
    return [...this.store.loadBalancers.values()]
      .map((lb) => lbs.renderLoadBalancer(this.store, lb))
      .sort(byText((lb) => lb.LoadBalancerName ?? ''));
  }

  targetGroups(): Sdk.TargetGroup[] {
    return [...this.store.targetGroups.values()]
      .map((tg) => tgs.renderTargetGroup(this.store, tg))
      .sort(byText((tg) => tg.TargetGroupName ?? ''));
  }

  listeners(): Sdk.Listener[] {
    const lbName = (arn: string) => this.store.loadBalancers.get(arn)?.name ?? '';
    return [...this.store.listeners.values()]
      .sort((a, b) => byText(lbName)(a.loadBalancerArn, b.loadBalancerArn) || a.port - b.port)
      .map((l) => listeners.renderListener(this.store, l));
  }

  rules(): (Sdk.Rule & { ListenerArn: string })[] {
    const order = new Map(this.listeners().map((l, i) => [l.ListenerArn!, i]));
    return [...this.store.rules.values()]
      .sort(
        (a, b) => (order.get(a.listenerArn) ?? 0) - (order.get(b.listenerArn) ?? 0) || rules.byPriority(a, b),
      )
      .map((r) => ({ ...rules.renderRule(r), ListenerArn: r.listenerArn }));
  }

  targets(): SnapshotTarget[] {
    const out: SnapshotTarget[] = [];
    for (const tg of this.targetGroups()) {
      const { TargetHealthDescriptions = [] } = this.describeTargetHealth({
        TargetGroupArn: tg.TargetGroupArn,
      });
      for (const d of TargetHealthDescriptions) {
        out.push({
          TargetGroupArn: tg.TargetGroupArn!,
          TargetGroupName: tg.TargetGroupName!,
          Id: d.Target?.Id ?? '',
          Port: d.Target?.Port ?? 0,
          AvailabilityZone: d.Target?.AvailabilityZone,
          State: d.TargetHealth?.State ?? '',
          Reason: d.TargetHealth?.Reason,
        });
      }
    }
    return out.sort(
      (a, b) => byText((t: SnapshotTarget) => `${t.TargetGroupName}\n${t.Id}`)(a, b) || a.Port - b.Port,
    );
  }

  /** Trust stores are not in snapshot(): the provider only references ones that already exist. */
  trustStores(): Sdk.TrustStore[] {
    return [...this.store.trustStores.values()]
      .sort((a, b) => a.seq - b.seq)
      .map((t) => trustStores.renderTrustStore(t));
  }

  tags(): { ResourceArn: string; Tags: Record<string, string> }[] {
    return [...this.store.tags]
      .filter(([, t]) => t.size > 0)
      .map(([ResourceArn, t]) => ({ ResourceArn, Tags: Object.fromEntries(t) }))
      .sort(byText((t) => t.ResourceArn));
  }

  tagsOf(arn: string): Record<string, string> {
    return Object.fromEntries(this.store.tags.get(arn) ?? []);
  }

  snapshot(): Elbv2Snapshot {
    return {
      loadBalancers: this.loadBalancers(),
      targetGroups: this.targetGroups(),
      listeners: this.listeners(),
      rules: this.rules(),
      targets: this.targets(),
      tags: this.tags(),
    };
  }
}
