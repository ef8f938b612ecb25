#pragma once

#include "Params.h"

#include <QList>
#include <QMap>
#include <QString>

#include <variant>

namespace posenc {

// Parameter texts by key, as the command line gives them and a session, a lesson or a preset
// keeps them under "params": {"d-model": "512", "layout": "split"}.
using ParamTexts = QMap<QString, QString>;

// Parameter texts laid over parameters: how a session, a lesson or a preset is applied, in the
// window and on the command line alike (where the flags given are laid over them first).
namespace ParamOverlay {

// Sets on `params` every parameter `texts` holds, as ParamText reads it, in --help's order; keys
// that are not ParamText's (a matrix to load) are the caller's. The syntax errors; empty when
// every text was read.
QList<ParamError> set(Params &params, const ParamTexts &texts);

// `base` with every parameter of `texts` set and the result validated: the parameters, or the
// syntax errors, or else every problem Params::validate() finds.
std::variant<Params, QList<ParamError>> over(const Params &base, const ParamTexts &texts);

} // namespace ParamOverlay

} // namespace posenc
