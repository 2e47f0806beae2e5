#include "cli/tap_main.hpp"
#include "util/heap_setup.hpp"

int main(int argc, char** argv) {
    tapdiffgen::core::setUpHeap();
    return tapdiffgen::core::tapMain(argc, argv);
}
