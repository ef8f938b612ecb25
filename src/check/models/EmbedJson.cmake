# cmake -DOUTPUT=ModelData.cpp -DTABLE=ModelSchemes.json -DEXAMPLES="a.json;b.json" -P EmbedJson.cmake
# Writes the C++ source of ModelTable::json() and ModelExamples' files: the model table and the
# example configs as they are (docs/ARCHITECTURE.md, Model knowledge), in raw literals of at most
# 30000 bytes each, cut after a line (clang refuses one literal past 65536).
set(delimiter "posenc_json")
function(posenc_literal var text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "A model file holds the raw string's delimiter )${delimiter}\"")
  endif()
  set(pieces "")
  while(NOT text STREQUAL "")
    string(LENGTH "${text}" remaining)
    if(remaining GREATER 30000)
      string(SUBSTRING "${text}" 0 30000 head)
      string(FIND "${head}" "\n" cut REVERSE)
      if(cut EQUAL -1)
        message(FATAL_ERROR "A model file has a line of more than 30000 bytes")
      endif()
      math(EXPR cut "${cut} + 1")
    else()
      set(cut ${remaining})
    endif()
    string(SUBSTRING "${text}" 0 ${cut} piece)
    string(SUBSTRING "${text}" ${cut} -1 text)
    string(APPEND pieces "    text += R\"${delimiter}(${piece})${delimiter}\";\n")
  endwhile()
  set(${var} "${pieces}" PARENT_SCOPE)
endfunction()

file(READ ${TABLE} table)
posenc_literal(tablePieces "${table}")
set(examples "")
foreach(path IN LISTS EXAMPLES)
  get_filename_component(name ${path} NAME_WLE)
  file(READ ${path} content)
  posenc_literal(pieces "${content}")
  string(APPEND examples "    {\n        QByteArray text;\n${pieces}        files.append({QStringLiteral(\"${name}\"), text});\n    }\n")
endforeach()
file(WRITE ${OUTPUT}.new "// Generated from src/check/models/ by src/check/models/EmbedJson.cmake: do not edit.
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
# Written only when it changed, so that an edit elsewhere recompiles nothing.
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
