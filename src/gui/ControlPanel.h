#pragma once

#include "io/Preset.h"

#include "core/ParamTable.h"
#include "core/Params.h"

#include <QHash>
#include <QSet>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <memory>
#include <variant>

class QLabel;

namespace Ui {
class ControlPanel;
}

namespace posenc {

class ParamControl;

// Every parameter of the parameter table as a control (ParamControl), named with the command
// line's words, in the table's groups under a chooser of presets (ui/ControlPanel.ui): the model,
// the chosen encoding family's page, the embeddings, dropout and the seed. A change is assigned
// to the parameters as a value and validated once by Params; a valid result is emitted, an
// invalid one shows each reason beside its control and emits nothing, so the views keep showing
// the last valid state. A control the settings ignore is disabled, and its tooltip says why
// (the row's idle rule, ParamTips).
class ControlPanel : public QWidget
{
    Q_OBJECT

public:
    // The presets come from `presetFolder` (the shipped ones by default).
    explicit ControlPanel(QWidget *parent = nullptr,
                          const QString &presetFolder = QString::fromUtf16(Presets::kShippedFolder));
    ~ControlPanel() override;

    // Shows `params` in the controls; emits nothing.
    void setParams(const Params &params);
    // Shows `params` in the controls and emits paramsChanged() when they differ from the
    // current ones, as an edit of the controls does (a session opened, a matrix loaded).
    void applyParams(const Params &params);
    // Enters what was typed in a field but not yet entered (Return or leaving the field), as
    // if it had been: before the window closes, or a lesson is left, on a key pressed in it.
    void commitPendingEdits();
    // The last valid parameters.
    const Params &params() const { return m_params; }
    // The message shown beside the control of `key` (empty when none).
    QString errorText(const QString &key) const;
    bool hasErrors() const { return m_hasErrors; }

    const QList<Preset> &presets() const { return m_presets; }
    // The preset the parameters are at, or -1 for "custom".
    int activePreset() const { return m_activePreset; }
    // Sets every parameter the preset names, as choosing it does; false (with the reason beside
    // the chooser) when the current settings refuse it.
    bool choosePreset(int index);
    // Names the preset `name` as the one the parameters are at, where they hold it: a preset given
    // by name (a lesson opened for it) is that preset, not the first whose parameters match (the
    // fairseq init's three are Whisper's too). False, and nothing named, where they do not hold it.
    bool namePreset(const QString &name);
    // How a chosen preset is read into parameters: set over the current ones (Preset::applyTo),
    // or as `reading` reads it where one is given (a lesson read for the preset's model).
    using PresetReading = std::function<std::variant<Params, QList<ParamError>>(const Preset &, const Params &)>;
    void setPresetReading(PresetReading reading) { m_presetReading = std::move(reading); }

signals:
    void paramsChanged(const posenc::Params &params);
    // The user chose the preset `index` in the chooser; emitted before its parameters are applied.
    void presetChosen(int index);
    // A matrix parameter's button: load a file for `key` ("embeddings", "position-table").
    void loadRequested(const QString &key);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fillPresets();
    // The active preset's source on one line, shortened to the room it has (whole in its tooltip).
    void showPresetSource();
    void buildControls();
    // Gives each label a mnemonic: Alt and a letter of its text move to its control.
    void assignMnemonics();
    void readControls();
    void showErrors(const QList<ParamError> &errors);
    // Enables the controls `params` read, with tooltips that give their formula or why not. `editing`:
    // a control was moved; the tooltips of controls that were already in view wait for the controls
    // to rest (showStaleTips).
    void showUse(const Params &params, const QList<ParamError> &errors, bool editing = false);
    // Sets the tooltip of `key`'s widgets for the parameters of the last showUse, where it changed.
    void showTip(const QString &key);
    // The tooltips left for later (m_staleTips) of the controls in view.
    void showStaleTips();
    // Shows the preset `params` are at: the chosen one while it still matches, else, unless the
    // controls moved away from it, the first that matches.
    void showPreset(const Params &params, bool editedByHand);
    QLabel *errorLabelFor(const QString &key) const;
    // Shows the group of the chosen encoding family, hides the others'.
    void showFamily(Encoding encoding);

    std::unique_ptr<Ui::ControlPanel> m_ui;
    Params m_params;
    QList<ParamControl *> m_controls; // in the table's order
    QHash<QString, QLabel *> m_errorLabels;
    QHash<QString, QList<QWidget *>> m_controlsOf; // per key: its label and its input widgets
    QHash<const QObject *, QString> m_keyOf; // each of those widgets' key
    Params m_tipParams; // the parameters the tooltips describe: those of the last showUse
    // Keys whose tooltips wait: for a Show (all their widgets hidden), or for the controls to rest, a
    // hover or the focus (in view while a control moves).
    QSet<QString> m_staleTips;
    QSet<QString> m_tipsInView; // keys with a widget in view at the last showUse
    QTimer m_tipTimer; // the controls' rest, after which the tooltips in view are written
    QHash<Encoding, QList<QWidget *>> m_familyWidgets; // per family: its group's heading and rows
    QList<Preset> m_presets;
    PresetReading m_presetReading;
    int m_activePreset = -1;
    QString m_presetSource; // the active preset's source, whole
    bool m_hasErrors = false;
    bool m_updating = false;
};

} // namespace posenc
