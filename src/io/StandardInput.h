#pragma once

#include "io/ReadError.h"

#include <QString>

// "-" for standard input wherever a file is read (docs/ARCHITECTURE.md, Command line): a table to
// check, a model config, a session, a matrix. The readers take a path and ask here where its bytes
// are. Standard input is read once, whole, into a temporary file that lasts as long as the process
// and has no name left on disk, so that every reader reads it as it reads a regular file
// (positioned reads, a size to check lengths against) and a second reader reads the same bytes.
// A regular file redirected to standard input (posenc check - < pe.npy) is read where it is.
namespace posenc::StandardInput {

// Whether `path` names standard input: "-".
bool names(const QString &path);

// The regular file a reader opens for `path`: `path` itself, or for "-" the file that holds
// standard input (read on the first call), or why it cannot be read.
ReadResult<QString> file(const QString &path);

// The extension `path`'s format is known by, lower case: its own ("npy", "csv"), or for standard
// input the one its first bytes show: "npy" (the .npy magic), "safetensors" (a header length and
// '{'), "json" ('{' first) or "csv" (any other text).
QString suffix(const QString &path);

} // namespace posenc::StandardInput
