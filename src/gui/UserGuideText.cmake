# cmake -DGUIDE=docs/GUIDE.md -DOUTPUT=UserGuideText.cpp -P UserGuideText.cmake
# Writes the C++ source of UserGuide::markdown(): docs/GUIDE.md as it is (docs/ARCHITECTURE.md,
# The user guide), in raw literals (posenc_literal, src/EmbedLiteral.cmake).
file(READ ${GUIDE} guide)
string(STRIP "${guide}" guide)
include(${CMAKE_CURRENT_LIST_DIR}/../EmbedLiteral.cmake)
posenc_literal(pieces "${guide}")
posenc_write_generated(${OUTPUT} "// Generated from docs/GUIDE.md by src/gui/UserGuideText.cmake: do not edit.
#include \"gui/UserGuide.h\"

#include <QByteArray>

namespace posenc::UserGuide {

QString markdown()
{
    QByteArray text;
${pieces}    return QString::fromUtf8(text);
}

} // namespace posenc::UserGuide
")
