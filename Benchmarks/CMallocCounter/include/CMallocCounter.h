int tapwire_malloc_placeholder(void);
