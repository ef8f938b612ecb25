// NoPE's test record (tests/support/TestFamily.h): no rows and no tables of its own; its figure of
// order without positions is drawn under its encoding.
#include "support/TestFamily.h"

POSENC_TEST_FAMILY(None)
{
    TestFamily f;
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::None;
        return p;
    };
    return f;
}
