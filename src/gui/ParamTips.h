#pragma once

#include "core/ParamUse.h"
#include "core/Params.h"

#include <QString>

// What the window says about a parameter beside its control: the formula it enters, with the
// numbers of the current settings, and why the settings ignore it when they do.
namespace posenc::ParamTips {

// The tooltip of the control of `key` (a ParamText key, or ParamUse's kCustomScale and
// kCustomSigma): its name and flag, the reason it is disabled if `params` ignore it, and the
// formula it enters.
QString tooltip(const QString &key, const Params &params);

// Why `params` ignore `key`, in the window's words ("evaluation mode drops nothing"); empty when
// the parameter matters.
QString idleText(const QString &key, const Params &params);

// The formula `key` enters, with the numbers of `params`.
QString formula(const QString &key, const Params &params);

} // namespace posenc::ParamTips
