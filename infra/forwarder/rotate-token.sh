#!/usr/bin/env bash
# Mints a short-lived token for the forwarder's ServiceAccount on the Karmada API server (the
# TokenRequest API, through `kubectl create token`) and writes it into the forwarder's kubeconfig
# Secret in the host cluster. The kubeconfig names the token by `token-file`, which the forwarder
# reads again every minute: no restart. Run it from cron or CI well within the token's lifetime,
# e.g. every 8 hours for the default 24 h:
#
#   KARMADA_CONTEXT=karmada-apiserver HOST_CONTEXT=karmada-host infra/forwarder/rotate-token.sh
#
# The first run also writes the kubeconfig (server and CA) next to the token.
set -euo pipefail

KARMADA_CONTEXT=${KARMADA_CONTEXT:-karmada-apiserver}
HOST_CONTEXT=${HOST_CONTEXT:-karmada-host}
DURATION=${DURATION:-24h}
SERVER=${SERVER:-https://karmada-apiserver.karmada-system.svc.cluster.local:5443}
SECRET=${SECRET:-multicluster-forwarder-kubeconfig}
HOST_NAMESPACE=${HOST_NAMESPACE:-multicluster-forwarder}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
umask 077

kubectl --context "$KARMADA_CONTEXT" -n karmada-system create token multicluster-forwarder \
  --duration="$DURATION" > "$work/token"
kubectl --context "$KARMADA_CONTEXT" config view --raw --minify --flatten \
  -o jsonpath='{.clusters[0].cluster.certificate-authority-data}' | base64 -d > "$work/ca.crt"

KUBECONFIG="$work/karmada.config" kubectl config set-cluster karmada --server="$SERVER" \
  --certificate-authority="$work/ca.crt" --embed-certs=true > /dev/null
# The mounted Secret's `token` key, re-read by the forwarder while it runs.
KUBECONFIG="$work/karmada.config" kubectl config set users.multicluster-forwarder.token-file /etc/kubeconfig/token > /dev/null
KUBECONFIG="$work/karmada.config" kubectl config set-context karmada --cluster=karmada \
  --user=multicluster-forwarder > /dev/null
KUBECONFIG="$work/karmada.config" kubectl config use-context karmada > /dev/null

kubectl --context "$HOST_CONTEXT" -n "$HOST_NAMESPACE" create secret generic "$SECRET" \
  --from-file=karmada.config="$work/karmada.config" --from-file=token="$work/token" \
  --dry-run=client -o yaml | kubectl --context "$HOST_CONTEXT" apply -f - > /dev/null
echo "rotated: token valid for $DURATION"
