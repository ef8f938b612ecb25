// 2-D RoPE's test record (tests/support/TestFamily.h). Its tables are checked against
// support/Rope2dReference.h in its own tests (tst_rope2dtables), pair by patch.
#include "support/TestFamily.h"

using namespace Qt::StringLiterals;

POSENC_TEST_FAMILY(Rope2d)
{
    TestFamily f;
    // A head of 32 within the tests' d_model.
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::Rope2d;
        p.rope.headDim = 32;
        p.mrope.section = {4, 6, 6};
        return p;
    };
    f.figureFlags = [](std::int64_t) { return QStringList {u"--head-dim"_s, u"32"_s}; };
    f.changes = {{u"rope-2d-style"_s, u"axial"_s}, {u"axes-dim"_s, u"2,4,2"_s}, {u"patch"_s, u"1,2"_s}};
    const TestSetting rope2d
        = {{u"encoding"_s, u"rope-2d"_s}, {u"head-dim"_s, u"8"_s}, {u"grid"_s, u"4,6"_s}, {u"patch"_s, u"1,1"_s}};
    f.settings
        = {{u"rope-2d"_s, rope2d},
           {u"rope-2d flux"_s, rope2d + TestSetting {{u"axes-dim"_s, u"2,2,4"_s}, {u"rope-2d-style"_s, u"flux"_s}}}};
    return f;
}
