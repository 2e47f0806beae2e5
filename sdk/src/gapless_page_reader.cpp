#include "tap-diffgen/sdk/gapless_page_reader.hpp"

namespace tapdiffgen::sdk {

void GaplessPageReader::read(const PageRequest& request, EventPage& page) {
    if (preferPlain_) {
        plain_(request, page);
        if (page.fillsRangeAfter(request.afterId)) {
            page.setRangeRowCount(static_cast<int64_t>(page.size()));
            return;
        }
        page.clear();
    }
    full_(request, page);
    preferPlain_ = page.size() == 0 || page.fillsRangeAfter(request.afterId);
}

}  // namespace tapdiffgen::sdk
