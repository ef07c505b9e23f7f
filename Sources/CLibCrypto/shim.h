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
