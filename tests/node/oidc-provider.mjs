// A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1, for tests.
//
//   node oidc-provider.mjs PORT CLIENT_ID CLIENT_SECRET REDIRECT_URI
//
// Prints "ready" once listening. Any email address can sign in on its login page (the
// account id is the email; it is verified unless a test says otherwise). PKCE is required
// of every client.
// POST /test/tamper {"mode": "wrong-aud" | "expired" | "bad-nonce", "set": {...},
// "drop": [...]} makes the NEXT id token from the token endpoint carry a wrong audience, an
// expiry in the past, another nonce, the claims in "set" and none of those in "drop",
// re-signed with the provider's own key: a provider misbehaving, as the relying party sees it.
// POST /test/account {"set": {...}, "drop": [...]} changes the claims of every account (the
// id token's and userinfo's alike) until the next /test/account; {} restores them.
import http from "node:http";
import { generateKeyPair, exportJWK, SignJWT, decodeJwt, decodeProtectedHeader } from "jose";
import Provider from "oidc-provider";

const [port, clientId, clientSecret, redirectUri] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;
const { privateKey } = await generateKeyPair("RS256", { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };
let tamper = null;
let account = {};

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
    },
  ],
  jwks: { keys: [jwk] },
  pkce: { required: () => true },
  cookies: { keys: ["askdocs-test-cookie-key"] },
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  findAccount: async (ctx, id) => ({
    accountId: id,
    claims: async () =>
      changed({ sub: id, email: id, email_verified: true, name: id.split("@")[0] }, account),
  }),
  renderError: async (ctx, out) => {
    ctx.type = "text/plain";
    ctx.body = `error: ${out.error}: ${out.error_description || ""}`;
  },
});

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path === "/token" && tamper && ctx.body && ctx.body.id_token) {
    ctx.body = { ...ctx.body, id_token: await retoken(ctx.body.id_token, tamper) };
    tamper = null;
  }
});

function changed(claims, how) {
  const out = { ...claims, ...(how.set || {}) };
  for (const name of how.drop || []) delete out[name];
  return out;
}

async function retoken(idToken, how) {
  const claims = changed(decodeJwt(idToken), how);
  const now = Math.floor(Date.now() / 1000);
  const mode = how.mode;
  if (mode === "wrong-aud") claims.aud = "somebody-else";
  if (mode === "expired") Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
  if (mode === "bad-nonce") claims.nonce = "not-the-nonce";
  const header = decodeProtectedHeader(idToken);
  return new SignJWT(claims).setProtectedHeader({ alg: header.alg, kid: jwk.kid }).sign(privateKey);
}

const page = (uid, note) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Test provider</title></head>
<body style="font-family: sans-serif; max-width: 26rem; margin: 3rem auto">
<h1>Test OpenID provider</h1><p>${note}</p>
<form method="post" action="/interaction/${uid}/login">
<label>Email <input type="email" name="email" id="provider-email" required></label>
<button type="submit" id="provider-submit">Continue</button></form></body></html>`;

async function text(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

async function interaction(req, res) {
  const details = await provider.interactionDetails(req, res);
  const { uid, params } = details;
  if (req.method === "GET") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page(uid, `Sign in to ${params.client_id}`));
    return;
  }
  const email = new URLSearchParams(await text(req)).get("email") || "";
  const grant = new provider.Grant({ accountId: email, clientId: params.client_id });
  grant.addOIDCScope(String(params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req, res, { login: { accountId: email }, consent: { grantId } }, { mergeWithLastSubmission: false },
  );
}

const callback = provider.callback();
http
  .createServer(async (req, res) => {
    try {
      if (req.url.startsWith("/interaction/")) return await interaction(req, res);
      if (req.url === "/test/tamper" && req.method === "POST") {
        tamper = JSON.parse(await text(req));
        return res.end("ok");
      }
      if (req.url === "/test/account" && req.method === "POST") {
        account = JSON.parse(await text(req));
        return res.end("ok");
      }
      return callback(req, res);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
