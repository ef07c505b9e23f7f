// SPDX-License-Identifier: Apache-2.0
// The C walks of Benchmarks/CNDEFLimit compiled by gcc -O2 on their own, for
// Benchmarks/run-callgrind.sh: reads a hex corpus (one input a line), runs PASSES passes of
// the walk over every input, one call an input as in TapwireBenchmarks' passes, and prints
// the inputs and the walk's sum. Under callgrind, `--toggle-collect=walk_pass` counts the
// passes only.
//
//   gcc -O2 -I Benchmarks/CNDEFLimit/include -o walk-driver
//     Benchmarks/limit-driver/walk-driver.c Benchmarks/CNDEFLimit/NDEFLimit.c
//   walk-driver ndef|ad FILE PASSES
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CNDEFLimit.h"

static unsigned char *bytes;
static size_t *starts, *counts, inputs;

__attribute__((noinline)) size_t walk_pass(int ad) {
  size_t sum = 0;
  for (size_t i = 0; i < inputs; i++)
    sum += ad ? tapwire_ad_walk(bytes + starts[i], counts[i]) : tapwire_ndef_header_walk(bytes + starts[i], counts[i]);
  return sum;
}

static int nibble(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: walk-driver ndef|ad FILE PASSES\n");
    return 2;
  }
  int ad = strcmp(argv[1], "ad") == 0;
  FILE *file = fopen(argv[2], "r");
  if (!file) {
    perror(argv[2]);
    return 1;
  }
  size_t capacity = 1 << 22, lines = 1 << 16, used = 0;
  bytes = malloc(capacity);
  starts = malloc(lines * sizeof *starts);
  counts = malloc(lines * sizeof *counts);
  int c, high = -1;
  size_t start = 0;
  while ((c = fgetc(file)) != EOF) {
    if (c == '\n') {
      if (used > start && inputs < lines) {
        starts[inputs] = start;
        counts[inputs++] = used - start;
      }
      start = used;
      continue;
    }
    int value = nibble(c);
    if (value < 0) continue;
    if (high < 0) {
      high = value;
    } else if (used < capacity) {
      bytes[used++] = (unsigned char)(high << 4 | value);
      high = -1;
    }
  }
  if (used > start && inputs < lines) {
    starts[inputs] = start;
    counts[inputs++] = used - start;
  }
  fclose(file);
  size_t sum = 0;
  for (long pass = atol(argv[3]); pass > 0; pass--) sum += walk_pass(ad);
  printf("%zu inputs, sum %zu\n", inputs, sum);
  return 0;
}
