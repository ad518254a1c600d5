/* Home page: start a match, keep its host key, open its board. */
"use strict";
(() => {
  const form = document.getElementById("new-match");
  const error = form.querySelector(".form-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const players = [...form.querySelectorAll("input[name=player]")]
      .map((input) => input.value.trim()).filter(Boolean);
    const body = {
      players,
      rules: form.elements.rules.value,
      profile: form.elements.profile.value,
      target: parseInt(form.elements.target.value, 10),
    };
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const match = await Companion.api("POST", "/api/matches", body);
      Companion.saveToken(match.id, match.host_token);
      location.href = `/m/${match.id}`;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      button.disabled = false;
    }
  });
})();
