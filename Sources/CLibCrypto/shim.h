// SPDX-License-Identifier: Apache-2.0
// OpenSSL 3 libcrypto (Debian libssl-dev), imported by GlobalPlatformCryptoOpenSSL only.
//
// No pkg-config: the headers are on the default include path and the module map links
// libcrypto, so builds that do not use it never look for it. The helpers below keep the
// EVP context handling (allocate, init, update, final, free) in C, so the Swift side only
// passes buffers and lengths. Each returns 1 on success and 0 on failure.
#if !__has_include(<openssl/evp.h>)
#error "OpenSSL 3 headers not found: apt-get install libssl-dev"
#endif
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <stddef.h>

/// A library context with the default provider and, when `legacy` is non-zero, the legacy
/// provider too (single DES lives there in OpenSSL 3); NULL on failure.
static inline OSSL_LIB_CTX *tapwire_crypto_context_new(int legacy) {
  OSSL_LIB_CTX *context = OSSL_LIB_CTX_new();
  if (context == NULL) return NULL;
  if (OSSL_PROVIDER_load(context, "default") == NULL ||
      (legacy && OSSL_PROVIDER_load(context, "legacy") == NULL)) {
    OSSL_LIB_CTX_free(context);
    return NULL;
  }
  return context;
}

/// Runs the unpadded cipher `name` (e.g. "AES-128-CBC", "DES-EDE3-ECB") over `length` bytes,
/// a multiple of the block size; `iv` may be NULL for ECB. `out` holds `length` bytes.
static inline int tapwire_crypto_cipher(OSSL_LIB_CTX *context, const char *name, int encrypt,
                                        const unsigned char *key, const unsigned char *iv,
                                        const unsigned char *in, size_t length,
                                        unsigned char *out) {
  if (length > 0x7fffffff) return 0;
  EVP_CIPHER *cipher = EVP_CIPHER_fetch(context, name, NULL);
  if (cipher == NULL) return 0;
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int ok = ctx != NULL && EVP_CipherInit_ex2(ctx, cipher, key, iv, encrypt, NULL) == 1 &&
           EVP_CIPHER_CTX_set_padding(ctx, 0) == 1;
  int written = 0, last = 0;
  if (ok && length > 0) ok = EVP_CipherUpdate(ctx, out, &written, in, (int)length) == 1;
  if (ok) ok = EVP_CipherFinal_ex(ctx, out + written, &last) == 1;
  if (ok) ok = (size_t)(written + last) == length;
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(cipher);
  return ok;
}

/// AES-CMAC (NIST SP 800-38B) with `cipher` "AES-128-CBC", "AES-192-CBC" or "AES-256-CBC"
/// matching the key length; writes 16 bytes to `out`.
static inline int tapwire_crypto_cmac(OSSL_LIB_CTX *context, char *cipher, const unsigned char *key,
                                      size_t key_length, const unsigned char *in, size_t length,
                                      unsigned char *out) {
  EVP_MAC *mac = EVP_MAC_fetch(context, "CMAC", NULL);
  if (mac == NULL) return 0;
  EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
  OSSL_PARAM params[2];
  params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher, 0);
  params[1] = OSSL_PARAM_construct_end();
  size_t written = 0;
  int ok = ctx != NULL && EVP_MAC_init(ctx, key, key_length, params) == 1 &&
           EVP_MAC_update(ctx, in, length) == 1 && EVP_MAC_final(ctx, out, &written, 16) == 1 &&
           written == 16;
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
  return ok;
}

/// The digest `name` ("SHA1", "SHA256") of `length` bytes; writes its size to `out`.
static inline int tapwire_crypto_digest(OSSL_LIB_CTX *context, const char *name,
                                        const unsigned char *in, size_t length,
                                        unsigned char *out, size_t out_size) {
  EVP_MD *md = EVP_MD_fetch(context, name, NULL);
  if (md == NULL) return 0;
  unsigned int written = 0;
  int ok = (size_t)EVP_MD_get_size(md) == out_size &&
           EVP_Digest(in, length, out, &written, md, NULL) == 1 && written == out_size;
  EVP_MD_free(md);
  return ok;
}

/// `length` bytes from the context's CSPRNG (OpenSSL's DRBG seeded from the OS).
static inline int tapwire_crypto_random(OSSL_LIB_CTX *context, unsigned char *out, size_t length) {
  return RAND_bytes_ex(context, out, length, 0) == 1;
}

/// Whether (r, s), each `scalar_length` bytes big-endian, is an ECDSA signature of `digest`
/// (used as is, no hashing) under the SEC 1 point `point` on the named curve ("secp128r1",
/// "prime192v1", "secp224r1", "prime256v1"): 1 yes, 0 no, -1 the key or the library failed.
static inline int tapwire_crypto_ecdsa_verify(OSSL_LIB_CTX *context, const char *curve,
                                              const unsigned char *point, size_t point_length,
                                              const unsigned char *digest, size_t digest_length,
                                              const unsigned char *r, const unsigned char *s,
                                              size_t scalar_length) {
  if (scalar_length > 0x7fffffff) return -1;
  OSSL_PARAM params[3];
  params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)curve, 0);
  params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, point_length);
  params[2] = OSSL_PARAM_construct_end();
  EVP_PKEY *key = NULL;
  EVP_PKEY_CTX *key_context = EVP_PKEY_CTX_new_from_name(context, "EC", NULL);
  int result = -1;
  if (key_context == NULL || EVP_PKEY_fromdata_init(key_context) != 1 ||
      EVP_PKEY_fromdata(key_context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) {
    EVP_PKEY_CTX_free(key_context);
    return -1;
  }
  EVP_PKEY_CTX_free(key_context);
  ECDSA_SIG *signature = ECDSA_SIG_new();
  BIGNUM *big_r = BN_bin2bn(r, (int)scalar_length, NULL);
  BIGNUM *big_s = BN_bin2bn(s, (int)scalar_length, NULL);
  unsigned char *der = NULL;
  int der_length = -1;
  if (signature != NULL && big_r != NULL && big_s != NULL && ECDSA_SIG_set0(signature, big_r, big_s) == 1) {
    big_r = NULL;  // owned by the signature now
    big_s = NULL;
    der_length = i2d_ECDSA_SIG(signature, &der);
  }
  BN_free(big_r);
  BN_free(big_s);
  ECDSA_SIG_free(signature);
  if (der_length > 0) {
    EVP_PKEY_CTX *verify_context = EVP_PKEY_CTX_new_from_pkey(context, key, NULL);
    if (verify_context != NULL && EVP_PKEY_verify_init(verify_context) == 1) {
      int verified = EVP_PKEY_verify(verify_context, der, (size_t)der_length, digest, digest_length);
      // A signature libcrypto cannot check (r or s out of range) is one that does not verify.
      result = verified == 1 ? 1 : 0;
    }
    EVP_PKEY_CTX_free(verify_context);
  }
  OPENSSL_free(der);
  EVP_PKEY_free(key);
  return result;
}

/// Reads the DER certificates packed one after another in `bytes` into `stack`: 1 when every
/// byte was a certificate, 0 otherwise.
static inline int tapwire_crypto_read_certificates(const unsigned char *bytes, size_t length,
                                                   STACK_OF(X509) *stack) {
  const unsigned char *cursor = bytes;
  const unsigned char *end = bytes + length;
  while (cursor < end) {
    X509 *certificate = d2i_X509(NULL, &cursor, (long)(end - cursor));
    if (certificate == NULL) return 0;
    if (sk_X509_push(stack, certificate) <= 0) {
      X509_free(certificate);
      return 0;
    }
  }
  return 1;
}

/// RFC 5280 path validation of `chain` (DER certificates one after another, the signer first)
/// to one of `anchors` (the same way). On success writes the signer key's group name (empty
/// when it is not an EC key) and its public key (a SEC 1 point). Returns 1 trusted, 0 not
/// trusted (`reason` gets OpenSSL's verify error code), -2 a chain certificate unreadable,
/// -3 an anchor unreadable, -1 the library failed.
static inline int tapwire_crypto_certified_key(OSSL_LIB_CTX *context, const unsigned char *chain,
                                               size_t chain_length, const unsigned char *anchors,
                                               size_t anchors_length, char *group, size_t group_size,
                                               unsigned char *point, size_t point_size,
                                               size_t *point_length, int *reason) {
  int result = -1;
  X509_STORE *store = X509_STORE_new();
  STACK_OF(X509) *trusted = sk_X509_new_null();
  STACK_OF(X509) *untrusted = sk_X509_new_null();
  X509_STORE_CTX *verify = NULL;
  *reason = 0;
  *point_length = 0;
  if (group_size > 0) group[0] = 0;
  if (store == NULL || trusted == NULL || untrusted == NULL) goto done;
  if (!tapwire_crypto_read_certificates(anchors, anchors_length, trusted) || sk_X509_num(trusted) == 0) {
    result = -3;
    goto done;
  }
  for (int index = 0; index < sk_X509_num(trusted); index++) {
    if (X509_STORE_add_cert(store, sk_X509_value(trusted, index)) != 1) goto done;
  }
  if (!tapwire_crypto_read_certificates(chain, chain_length, untrusted) || sk_X509_num(untrusted) == 0) {
    result = -2;
    goto done;
  }
  X509 *signer = sk_X509_value(untrusted, 0);
  verify = X509_STORE_CTX_new_ex(context, NULL);
  if (verify == NULL || X509_STORE_CTX_init(verify, store, signer, untrusted) != 1) goto done;
  if (X509_verify_cert(verify) != 1) {
    *reason = X509_STORE_CTX_get_error(verify);
    result = 0;
    goto done;
  }
  EVP_PKEY *key = X509_get0_pubkey(signer);
  if (key == NULL) goto done;
  if (EVP_PKEY_is_a(key, "EC")) {
    if (EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, group_size, NULL) != 1 ||
        EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, point, point_size, point_length) != 1)
      goto done;
  }
  result = 1;
done:
  X509_STORE_CTX_free(verify);
  sk_X509_pop_free(untrusted, X509_free);
  sk_X509_pop_free(trusted, X509_free);
  X509_STORE_free(store);
  return result;
}

/// OpenSSL's text for a verify error code (`X509_verify_cert_error_string`).
static inline const char *tapwire_crypto_verify_error(int reason) {
  return X509_verify_cert_error_string(reason);
}
