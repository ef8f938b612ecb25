#pragma once

#include <QString>

#include <optional>

namespace posenc::FileOpening {

// What a file given to the window is (posenc FILE, a drop, a recent file): by its first bytes
// where they say (a .npy's magic, a safetensors header, a JSON object: a model's config.json when
// it has a "model_type" or an "architectures" key, else a session), else by its extension. A
// .csv file is a table to check (File > Check a table…), the window's only use of one.
enum class Kind { Session, Matrix, ModelConfig, CheckTable, Unknown };
Kind kindOf(const QString &path);

// Whether a matrix named `name` (its tensor's name, else its file's) is a learned position
// table: yes for the names such tables have ("wpe", "position_embeddings"), no for those of
// token embeddings ("wte", "word_embeddings", "embed_tokens", "tok_embeddings"), nothing when the
// name does not say, and the user is asked.
std::optional<bool> isPositionTable(const QString &name);

} // namespace posenc::FileOpening
