/* The dependency missing_dependency.c links against; deliberately not installed anywhere the
 * dynamic loader looks. */
int tdg_missing_library_marker(void);

int tdg_missing_library_marker(void) { return 1; }
