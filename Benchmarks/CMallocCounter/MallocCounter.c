int tapwire_malloc_placeholder(void) { return 0; }
