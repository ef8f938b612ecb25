#pragma once

#include "io/ReadError.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

// A model's config.json (HF transformers' PretrainedConfig as saved), read as hostile input
// (docs/ARCHITECTURE.md, Checking a model config): at most kMaxBytes, text, one JSON object.
namespace posenc::ModelConfigFile {

// Real configs are a few kilobytes (Phi-3's, with its 96 longrope factors, about 10 KiB): a file
// past this is no config, and is refused before it is read whole.
inline constexpr qint64 kMaxBytes = qint64(4) << 20;

// The object `bytes` hold, or why not: not JSON (the reason, the byte offset, its line and
// column), or JSON whose top level is not an object. `path` names the file in the error.
ReadResult<QJsonObject> parse(const QByteArray &bytes, const QString &path);

// The file at `path`, parsed: a directory, a pipe or a device, a file that cannot be opened and a
// file over kMaxBytes are refused with the reason.
ReadResult<QJsonObject> read(const QString &path);

} // namespace posenc::ModelConfigFile
