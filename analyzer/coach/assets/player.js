(function () {
  // A link of the player's report moves the board (its address is the board's step) and scrolls to it.
  var links = document.querySelectorAll("#player a.goto");
  Array.prototype.forEach.call(links, function (a) {
    a.addEventListener("click", function () {
      setTimeout(function () { (document.querySelector("body > header:not(.top)") || document.querySelector("main")).scrollIntoView(); }, 0);
    });
  });
})();
