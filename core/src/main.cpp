#include "cli/tap_main.hpp"

int main(int argc, char** argv) { return tapdiffgen::core::tapMain(argc, argv); }
