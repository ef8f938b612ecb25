#pragma once

#include <QCoreApplication>
#include <QString>

namespace posenc {

// A file's words translated in one context, as Q_DECLARE_TR_FUNCTIONS gives a class: a file of
// free functions declares `constexpr TrContext tr {"T5ParamRows"};` and writes tr("…") as a
// class would.
struct TrContext
{
    const char *context;

    QString operator()(const char *text) const { return QCoreApplication::translate(context, text); }
};

} // namespace posenc
