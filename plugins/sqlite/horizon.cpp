#include "horizon.hpp"

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::sqlite {
namespace {

// "SQLITE1\0" read as a little-endian word: recognisable in a state dump, and no other
// plugin's mark to be mistaken for.
constexpr int64_t kSingleWriterTag = 0x00314554494c5153;

}  // namespace

TdgHorizonMark singleWriterMark() {
    TdgHorizonMark mark{};
    mark.words[0] = kSingleWriterTag;
    return mark;
}

sdk::HorizonState checkHorizon(const TdgHorizonMark& mark) {
    if (mark.words[0] != kSingleWriterTag || mark.words[1] != 0 || mark.words[2] != 0 ||
        mark.words[3] != 0) {
        throw sdk::invalidArgument("not a SQLite horizon mark");
    }
    return sdk::HorizonState::Final;
}

}  // namespace tapdiffgen::sqlite
