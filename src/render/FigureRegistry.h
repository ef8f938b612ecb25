#pragma once

#include "FigureDescriptor.h"

#include <QList>
#include <QStringList>

// Every figure of the program, registered once in figures/FigureList.h.
namespace posenc::FigureRegistry {

// In the order the window and --help list them.
const QList<const FigureDescriptor *> &all();
const FigureDescriptor *find(const QString &name);
QStringList names();
// The figures that take option `key`, for a message to a user who gave it to another one.
QStringList figuresTaking(const QString &key);

// The figure's check of `state` for `params`, an option it does not take naming those that do.
QList<ParamError> check(const FigureDescriptor &figure, const Params &params, const FigureState &state);

} // namespace posenc::FigureRegistry
