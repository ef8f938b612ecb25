# cmake -DGUIDE=docs/GUIDE.md -DOUTPUT=UserGuideText.cpp -P UserGuideText.cmake
# Writes the C++ source of UserGuide::markdown(): docs/GUIDE.md as it is (docs/ARCHITECTURE.md,
# The user guide).
file(READ ${GUIDE} guide)
string(STRIP "${guide}" guide)
set(delimiter "posenc_guide")
string(FIND "${guide}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "The user guide holds the raw string's delimiter )${delimiter}\"")
endif()
# In pieces of at most 30000 bytes, each cut after a line: one literal of more than 65536 is
# beyond what C++ compilers must take (clang's -Woverlength-strings).
set(pieces "")
while(NOT guide STREQUAL "")
  string(LENGTH "${guide}" remaining)
  if(remaining GREATER 30000)
    string(SUBSTRING "${guide}" 0 30000 head)
    string(FIND "${head}" "\n" cut REVERSE)
    if(cut EQUAL -1)
      message(FATAL_ERROR "The user guide has a line of more than 30000 bytes")
    endif()
    math(EXPR cut "${cut} + 1")
  else()
    set(cut ${remaining})
  endif()
  string(SUBSTRING "${guide}" 0 ${cut} piece)
  string(SUBSTRING "${guide}" ${cut} -1 guide)
  string(APPEND pieces "    text += R\"${delimiter}(${piece})${delimiter}\";\n")
endwhile()
file(WRITE ${OUTPUT}.new "// Generated from docs/GUIDE.md by src/gui/UserGuideText.cmake: do not edit.
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
# Written only when it changed, so that a build that changed nothing of the guide recompiles nothing.
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
