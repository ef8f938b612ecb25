#pragma once

#include "core/Params.h"

#include <QHash>
#include <QWidget>

#include <memory>

class QLabel;

namespace Ui {
class ControlPanel;
}

namespace posenc {

// Every parameter of Params as a control (layout in ui/ControlPanel.ui). A change is read
// back through ParamText and validated once by Params; a valid result is emitted, an invalid
// one shows each reason beside its control and emits nothing, so the views keep showing the
// last valid state.
class ControlPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ControlPanel(QWidget *parent = nullptr);
    ~ControlPanel() override;

    // Shows `params` in the controls; emits nothing.
    void setParams(const Params &params);
    // Shows `params` in the controls and emits paramsChanged() when they differ from the
    // current ones, as an edit of the controls does (a session opened, a matrix loaded).
    void applyParams(const Params &params);
    // The last valid parameters.
    const Params &params() const { return m_params; }
    // The message shown beside the control of `key` (empty when none).
    QString errorText(const QString &key) const;
    bool hasErrors() const { return m_hasErrors; }

signals:
    void paramsChanged(const posenc::Params &params);

private:
    void connectControls();
    void readControls();
    void showErrors(const QList<ParamError> &errors);
    void updateEnabled();
    QLabel *errorLabelFor(const QString &key) const;

    std::unique_ptr<Ui::ControlPanel> m_ui;
    Params m_params;
    QHash<QString, QLabel *> m_errorLabels;
    bool m_hasErrors = false;
    bool m_updating = false;
};

} // namespace posenc
