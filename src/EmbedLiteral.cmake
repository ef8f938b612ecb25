# posenc_literal(VAR TEXT): TEXT as C++ statements `text += R"posenc_json(...)posenc_json";`, in raw
# literals of at most 30000 bytes each, cut after a line (clang refuses one literal past 65536). The
# files compiled in as they are use it: the model table and examples (check/models/EmbedJson.cmake),
# the families' words (core/EmbedWords.cmake) and the user guide (gui/UserGuideText.cmake).
set(delimiter "posenc_json")
function(posenc_literal var text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "A file compiled in holds the raw string's delimiter )${delimiter}\"")
  endif()
  set(pieces "")
  while(NOT text STREQUAL "")
    string(LENGTH "${text}" remaining)
    if(remaining GREATER 30000)
      string(SUBSTRING "${text}" 0 30000 head)
      string(FIND "${head}" "\n" cut REVERSE)
      if(cut EQUAL -1)
        message(FATAL_ERROR "A file compiled in has a line of more than 30000 bytes")
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

# posenc_write_generated(PATH TEXT): TEXT to PATH, written only when it changed, so that a build that
# changed nothing of what it is made from recompiles nothing.
function(posenc_write_generated path text)
  file(WRITE ${path}.new "${text}")
  file(COPY_FILE ${path}.new ${path} ONLY_IF_DIFFERENT)
  file(REMOVE ${path}.new)
endfunction()
