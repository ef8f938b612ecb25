# cmake -DREADME=README.md -DOUTPUT=UserGuideText.cpp -P UserGuideText.cmake
# Writes the C++ source of UserGuide::markdown(): the part of README.md between its two user
# guide markers, as it is (docs/ARCHITECTURE.md, The user guide).
set(opening "<!-- user guide begins -->")
set(closing "<!-- user guide ends -->")
file(READ ${README} readme)
string(FIND "${readme}" "${opening}" begin)
string(FIND "${readme}" "${closing}" end)
if(begin EQUAL -1 OR end EQUAL -1 OR end LESS begin)
  message(FATAL_ERROR "${README} needs the lines ${opening} and ${closing}, in that order, around the user guide")
endif()
string(LENGTH "${opening}" skip)
math(EXPR begin "${begin} + ${skip}")
math(EXPR length "${end} - ${begin}")
string(SUBSTRING "${readme}" ${begin} ${length} guide)
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
file(WRITE ${OUTPUT}.new "// Generated from README.md by src/gui/UserGuideText.cmake: do not edit.
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
# Written only when it changed, so that a README edit elsewhere recompiles nothing.
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
