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
#include <openssl/core_names.h>
#include <openssl/crypto.h>
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
