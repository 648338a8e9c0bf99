// Stands in for whatwg-url in the function bundles. client-node's node-fetch 2 requires it but
// only uses it where Node has no URL of its own (`Url.URL || whatwgUrl.URL`): on Node 20+ it is
// dead weight, 281 KiB minified with tr46's Unicode tables. Node's own WHATWG URL is the same API.
exports.URL = URL;
exports.URLSearchParams = URLSearchParams;
