# cmake -DOUTPUT=FamilyWordsData.cpp "-DWORDS=alibi/AlibiWords.json;..." -P EmbedWords.cmake
# Writes the C++ source of FamilyWords::files(): each family's words file as it is, named by its
# file's name less "Words.json" (docs/ARCHITECTURE.md, Adding an encoding family).
include(${CMAKE_CURRENT_LIST_DIR}/../EmbedLiteral.cmake)
set(files "")
foreach(path IN LISTS WORDS)
  get_filename_component(file ${path} NAME)
  string(REGEX REPLACE "Words\\.json$" "" name "${file}")
  file(READ ${path} content)
  posenc_literal(pieces "${content}")
  string(APPEND files "    {\n        QByteArray text;\n${pieces}        files.append({QStringLiteral(\"${name}\"), text});\n    }\n")
endforeach()
posenc_write_generated(${OUTPUT} "// Generated from src/core/*/*Words.json by src/core/EmbedWords.cmake: do not edit.
#include \"core/FamilyWords.h\"

namespace posenc {

QList<std::pair<QString, QByteArray>> FamilyWords::files()
{
    QList<std::pair<QString, QByteArray>> files;
${files}    return files;
}

} // namespace posenc
")
