# cmake -DOUTPUT=ModelData.cpp -DTABLE=ModelSchemes.json -DEXAMPLES="a.json;b.json" -P EmbedJson.cmake
# Writes the C++ source of ModelTable::json() and ModelExamples' files: the model table and the
# example configs as they are (docs/ARCHITECTURE.md, Model knowledge), in raw literals
# (posenc_literal, src/EmbedLiteral.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/../../EmbedLiteral.cmake)

file(READ ${TABLE} table)
posenc_literal(tablePieces "${table}")
set(examples "")
foreach(path IN LISTS EXAMPLES)
  get_filename_component(name ${path} NAME_WLE)
  file(READ ${path} content)
  posenc_literal(pieces "${content}")
  string(APPEND examples "    {\n        QByteArray text;\n${pieces}        files.append({QStringLiteral(\"${name}\"), text});\n    }\n")
endforeach()
posenc_write_generated(${OUTPUT} "// Generated from src/check/models/ by src/check/models/EmbedJson.cmake: do not edit.
#include \"check/models/ModelExamples.h\"
#include \"check/models/ModelTable.h\"

namespace posenc {

QByteArray ModelTable::json()
{
    QByteArray text;
${tablePieces}    return text;
}

QList<std::pair<QString, QByteArray>> ModelExamples::files()
{
    QList<std::pair<QString, QByteArray>> files;
${examples}    return files;
}

} // namespace posenc
")
