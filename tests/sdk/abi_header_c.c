/* Compiles the ABI header as C (a plugin may be written in C) and reports the sizes a C
 * compiler gives its structures, for abi_layout_test.cpp to compare with C++'s. */
#include <stddef.h>

#include "tap-diffgen/dialect_abi.h"

size_t tdgAbiSizeFromC(int which);

size_t tdgAbiSizeFromC(int which) {
    switch (which) {
        case 0:
            return sizeof(TdgCell);
        case 1:
            return sizeof(TdgDriver);
        case 2:
            return sizeof(TdgEventPage);
        case 3:
            return sizeof(TdgColumn);
        case 4:
            return sizeof(TdgFetchRequest);
        case 5:
            return sizeof(TdgPluginInfo);
        case 6:
            return sizeof(TdgSettingDeclaration);
        default:
            return 0;
    }
}
